/**
 * Both adapters refuse a database migrated by a newer Wirebird: running older code on a newer
 * schema could corrupt it, so they stop and say so rather than guess.
 */
export function refuseNewerSchema(
  applied: Iterable<number>,
  known: readonly { version: number }[],
): void {
  const newest = Math.max(0, ...known.map((m) => m.version));
  const ahead = [...applied].filter((v) => v > newest);
  if (ahead.length > 0) {
    throw new Error(
      `the database is at schema version ${Math.max(...ahead)}, newer than this Wirebird knows (${newest}); upgrade Wirebird`,
    );
  }
}

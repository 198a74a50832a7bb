/** How many of the messages just stored go to each route (channel), for the accepted counter. */
export function countRoutes(routes: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of routes) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
}

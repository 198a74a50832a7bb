/** What changed in the simulator inbox: new deliveries, or deliveries whose report was applied. */
export interface InboxChange {
  kind: 'delivered' | 'reported';
  ids: readonly number[];
}

export type InboxListener = (change: InboxChange) => void;

/**
 * The console's live inbox: the simulator publishes here and every open page's event stream
 * listens. In-process only; a page on another gateway sharing the store sees those deliveries on
 * its next load.
 */
export class InboxFeed {
  private readonly listeners = new Set<InboxListener>();

  subscribe(listener: InboxListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  readonly publish = (change: InboxChange): void => {
    if (change.ids.length === 0) return;
    for (const l of this.listeners) l(change);
  };
}

import type { Store } from '../domain/ports.js';

/**
 * Work that one node does at a time (the receipt sweeper, the auto-reviewer): on a store nodes
 * share, whichever node holds the named lock, and another once that node has died; on a store
 * of one node, that node always.
 */
export function onOneNode(store: Pick<Store, 'cluster'>, name: string): () => Promise<boolean> {
  const cluster = store.cluster;
  return cluster ? () => cluster.holdsLock(name) : async () => true;
}

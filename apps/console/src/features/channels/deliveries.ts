import { create } from 'zustand';
import type { DeliveryError, DeliveryNotice, DeliveryState } from '@kefu/protocol';

export interface Delivery {
  state: DeliveryState;
  error: DeliveryError | null;
  detail: string;
}

/**
 * Delivery states of messages sent to messaging platforms, by message id: from the window call (on
 * opening a chat) and the agent socket's `delivery` events. A message absent here was sent.
 */
export const useDeliveries = create<{
  byId: Record<string, Delivery>;
  note: (n: Pick<DeliveryNotice, 'id' | 'state' | 'error' | 'detail'>) => void;
}>((set) => ({
  byId: {},
  note: (n) =>
    set((s) => ({ byId: { ...s.byId, [n.id]: { state: n.state, error: n.error, detail: n.detail } } })),
}));

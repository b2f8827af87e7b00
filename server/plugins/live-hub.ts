// The live hub: server code calls emit(type, data); items are batched per tick and sent to every
// authenticated socket as one `dataQueue` event holding an array of {type, data}.
export interface LiveItem {
  type: string;
  data: unknown;
}

export interface LiveHub {
  emit(type: string, data: unknown): void;
  /** Connects the hub to a sender (the socket.io server); until then items are dropped. */
  attach(send: (items: LiveItem[]) => void): void;
}

export function createLiveHub(): LiveHub {
  let queue: LiveItem[] = [];
  let send: ((items: LiveItem[]) => void) | undefined;
  let scheduled = false;
  return {
    emit(type, data) {
      if (!send) return;
      queue.push({ type, data });
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        const items = queue;
        queue = [];
        send?.(items);
      });
    },
    attach(sender) {
      send = sender;
    },
  };
}

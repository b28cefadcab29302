// An async iterable fed by push(): what a subscription reads from. Its buffer is bounded: a
// consumer that falls `capacity` items behind is dropped (the iterator ends and `onOverflow`
// runs), so one slow client can never make the daemon's memory grow.

interface BoundedChannelOptions {
  capacity: number;
  /** Called once when the channel closes because the consumer fell behind. */
  onOverflow?: () => void;
  /** Called once when the channel closes for any reason (unsubscribe from the source here). */
  onClose?: () => void;
}

export class BoundedChannel<T> implements AsyncIterableIterator<T> {
  private readonly buffer: T[] = [];
  private waiting: ((r: IteratorResult<T>) => void) | null = null;
  private closed = false;

  constructor(private readonly options: BoundedChannelOptions) {}

  get size(): number {
    return this.buffer.length;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Delivers `value`; false when the channel is closed or just overflowed. */
  push(value: T): boolean {
    if (this.closed) return false;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value, done: false });
      return true;
    }
    if (this.buffer.length >= this.options.capacity) {
      this.options.onOverflow?.();
      this.close();
      return false;
    }
    this.buffer.push(value);
    return true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.length = 0;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: undefined, done: true });
    }
    this.options.onClose?.();
  }

  next(): Promise<IteratorResult<T>> {
    const value = this.buffer.shift();
    if (value !== undefined) return Promise.resolve({ value, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<T>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

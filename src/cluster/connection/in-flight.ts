/**
 * At most a given number of requests in flight: the others wait, first come first served. Node's agent cannot do
 * this for the transport: its maxSockets counts only the connections it has, and ours are opened asynchronously
 * (dial.ts), so every request sent before the first connection is up opens one of its own.
 */
export class InFlight {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** SEND once a place is free; the place is held until what SEND returns settles. */
  async run<T>(send: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active++;
    // Handed over by the request that ends (the count stays as it is).
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await send();
    } finally {
      const next = this.waiting.shift();
      if (next !== undefined) next();
      else this.active--;
    }
  }
}

/**
 * Ctrl-C while writing: the first one stops starting new writes and lets those in flight finish, so the command can
 * say what was and was not written; a second one, or one while nothing is being written, exits at once.
 */
export class Interrupt {
  private stopRequested = false;
  private writing = 0;

  /** True once a Ctrl-C asked the writes to stop. */
  get requested(): boolean {
    return this.stopRequested;
  }

  /** What a Ctrl-C does now: 'stop' the writes gracefully, or 'exit' at once. */
  signal(): 'stop' | 'exit' {
    if (this.writing > 0 && !this.stopRequested) {
      this.stopRequested = true;
      return 'stop';
    }
    return 'exit';
  }

  /** Runs FN as a phase of writes, during which a first Ctrl-C stops gracefully. */
  async whileWriting<T>(fn: () => Promise<T>): Promise<T> {
    this.writing++;
    try {
      return await fn();
    } finally {
      this.writing--;
    }
  }
}

// A one-shot latch with a bounded wait: `wait()` resolves once the latch is opened, or once
// `maxWaitMs` has passed, whichever comes first. Opening it twice, or after the timeout, is a no-op.

export class Latch {
  private readonly opened: Promise<void>;
  private release!: () => void;
  private readonly timer: NodeJS.Timeout;
  private done = false;

  constructor(maxWaitMs: number) {
    this.opened = new Promise<void>((resolve) => {
      this.release = resolve;
    });
    this.timer = setTimeout(() => this.open(), maxWaitMs);
    this.timer.unref();
  }

  get isOpen(): boolean {
    return this.done;
  }

  wait(): Promise<void> {
    return this.opened;
  }

  open(): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.release();
  }
}

/**
 * Sensitive actions (deleting a user or company, sharing, every change to one's own
 * sign-in factors) answer `factor_required` when the account has a second factor and
 * this session has not proved one in the last 15 minutes (docs/SECURITY.md,
 * "Two-factor sign-in"). The request layer asks "Confirm it's you" once, here, and
 * sends the request again: no screen handles it.
 */

/** Asks the user to prove a factor; true once proved, false when they gave up. */
export type FactorPrompt = () => Promise<boolean>;

/** The requests that prove a factor: asking for one while proving one would loop. */
export const PROVING_REQUESTS: readonly string[] = ['verify_factor', 'start_factor_passkey', 'verify_factor_passkey'];

export const FACTOR_REQUIRED = 'factor_required';

function factorRequired(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === FACTOR_REQUIRED;
}

export class StepUp {
  private prompt: FactorPrompt | null = null;
  private asking: Promise<boolean> | null = null;

  /** The screen that asks (the signed-in app's dialog); returns its removal. */
  setPrompt(prompt: FactorPrompt): () => void {
    this.prompt = prompt;
    return () => {
      if (this.prompt === prompt) this.prompt = null;
    };
  }

  /**
   * Sends, and when the server wants a fresh factor, asks for it and sends once more.
   * Requests refused meanwhile share the one question. Giving up, or a second refusal,
   * rejects with the server's own error, which says what was wanted.
   */
  async run<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      if (!factorRequired(error) || !this.prompt) throw error;
      if (!(await this.ask(this.prompt))) throw error;
      return send();
    }
  }

  private ask(prompt: FactorPrompt): Promise<boolean> {
    if (!this.asking) {
      this.asking = prompt()
        .catch(() => false)
        .finally(() => {
          this.asking = null;
        });
    }
    return this.asking;
  }
}

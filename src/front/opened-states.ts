// The requestStates a route opened to decide where a retry goes (owner-forward.ts), held while the
// retry is served so that the bridge checks those claims rather than decrypting the state again.
// An entry lives only as long as its request's handling; a state not found here is opened by the
// bridge as usual.
import type { StateClaims } from '../state/seal.js';

export class OpenedStates {
  private readonly byToken = new Map<string, StateClaims>();

  /** Holds `claims` for `token` until the returned release is called. */
  hold(token: string, claims: StateClaims): () => void {
    this.byToken.set(token, claims);
    return () => {
      if (this.byToken.get(token) === claims) this.byToken.delete(token);
    };
  }

  get(token: string | undefined): StateClaims | undefined {
    return token === undefined ? undefined : this.byToken.get(token);
  }
}

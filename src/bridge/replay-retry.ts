// The retry of a replayed call, before the call runs again: the client's answers are checked
// against the questions the record holds open (a malformed retry consumes nothing and may be sent
// again), then the state is consumed in the single-use ledger, then the answers join the record.
import { adaptAnswer, partitionAnswers } from '../protocol/answers.js';
import { ProxyError } from '../protocol/errors.js';
import { inputKey } from '../protocol/input-requests.js';
import type { JsonObject } from '../protocol/json.js';
import { withAnswers, type RecordEntry } from '../protocol/replay-match.js';
import { rootsFromAnswers } from '../protocol/roots.js';
import type { ConsumedLedger } from '../state/ledger.js';
import { decodeRecord } from '../state/replay-record.js';
import type { ReplayClaims } from '../state/claims.js';
import { StateError } from '../state/seal.js';
import type { UpstreamTelemetry } from '../telemetry/ports.js';
import type { BoundCall, FrontCall } from './front-call.js';
import { answersRefused, goneError } from './retry.js';

export interface RetryAnswers {
  inputResponses?: unknown;
  droppedInputKeys?: readonly string[];
}

/** A replayed call about to run (again): the call with its roots, what the client answered so far, the next round. */
export interface Rerun {
  call: BoundCall;
  record: RecordEntry[];
  round: number;
  /** The call's id across its runs (the first run's, carried in every state). */
  callId: string;
  /** What this retry answered, by input key: the previous run's questions (for the audit). */
  answers: ReadonlyMap<string, unknown>;
}

/** A replay state's retry, checked and consumed: the call to run again. */
export async function replayRetry(
  claims: ReplayClaims,
  front: FrontCall,
  ledger: Pick<ConsumedLedger, 'consume'>,
  telemetry: UpstreamTelemetry,
): Promise<Rerun> {
  const { record, answers } = await takeReplayRecord(claims, front, ledger);
  telemetry.roundServed(front.record, claims.r, undefined);
  // States sealed before call ids existed link no runs: their own id stands for the call.
  // Roots the client gave during the call bind the session the call runs on again (a server that
  // read roots at initialize serves what that session was told).
  const roots = claims.rt ?? rootsFromAnswers(record.map((e) => ({ method: e.m, answer: e.a })));
  return { call: { ...front, roots }, record, round: claims.r + 1, callId: claims.c ?? claims.h, answers };
}

export async function takeReplayRecord(
  claims: ReplayClaims,
  retry: RetryAnswers,
  ledger: Pick<ConsumedLedger, 'consume'>,
): Promise<{ record: RecordEntry[]; answers: ReadonlyMap<string, unknown> }> {
  let record: RecordEntry[];
  try {
    record = decodeRecord(claims.x);
  } catch (err) {
    if (err instanceof StateError) throw new ProxyError('state_invalid', err.reason, err.message);
    throw err;
  }
  const open = record.filter((e) => e.q !== undefined);
  const asked = open.map((e) => ({ key: inputKey(e.m, e.n), method: e.m, request: e.q! }));
  const split = partitionAnswers(asked, retry.inputResponses, retry.droppedInputKeys);
  if (!split.ok) throw answersRefused(split);
  const answers = new Map<number, JsonObject>();
  for (const e of open) {
    const key = inputKey(e.m, e.n);
    const answer = split.answers.get(key);
    if (answer === undefined) continue;
    const adapted = adaptAnswer(e.m, answer, claims.lv);
    if (!adapted.ok) throw new ProxyError('input_invalid', 'answer_invalid', `inputResponses['${key}']: ${adapted.message}`, { key });
    answers.set(e.n, answer);
  }
  let first: boolean;
  try {
    first = await ledger.consume(claims.h, claims.e);
  } catch {
    // Fail closed: without the ledger a second copy of this retry could run the call again. The
    // store's own words describe the deployment, not the request: the ledger's owner logs them.
    throw new ProxyError('store_unavailable', 'state_store_unavailable', 'the state store cannot be reached; the retry was not run, send it again later');
  }
  if (!first) throw goneError({ miss: 'consumed' });
  return { record: withAnswers(record, answers), answers: split.answers };
}

// What a sealed token carries, one shape per kind: a held call's requestState (`hold`), a replayed
// call's (`replay`) and a task id (`task`); one builder per kind, which every producer uses, and the
// one reader that checks every field of what was opened. Short claim names keep a token small
// across many rounds. Pure.
//
// On the wire a held call's state has no `k`: states sealed before kinds existed have none, and a
// proxy of an older version (during a rolling upgrade) reads a missing `k` as a held call. Every
// kind carries h, i, r, p and fp, which such a proxy requires of every state.
import type { Root } from '../protocol/json.js';
import { rootsFromClaim } from '../protocol/roots.js';

interface Bound {
  /** Handle: of the suspended interaction, of the replayed run, of the task. */
  h: string;
  /** The proxy instance that sealed it (and, for a held call or a task, owns it). */
  i: string;
  /** Round number this state answers. */
  r: number;
  /** Principal the token is bound to. */
  p: string;
  /** Fingerprint of the originating request. */
  fp: string;
}

/** A call held by instance `i`: its retry must come back there. */
export interface HoldClaims extends Bound {
  k: 'hold';
  /** The call's roots, once the client gave them in a roots round: later rounds never ask again. */
  rt?: Root[];
  /** The owner's advertised base URL, where other instances forward the retry. */
  o?: string;
}

/** A call let go: the retry runs it again, on any instance of upstream `u`. */
export interface ReplayClaims extends Bound {
  k: 'replay';
  rt?: Root[];
  /** The upstream (route name) the call belongs to. */
  u: string;
  /** The compressed record of questions and answers (state/replay-record.ts). */
  x: string;
  /** The legacy revision the questions were asked in (answers are checked against it). */
  lv: string;
  /** When the state expires, in ms (the single-use ledger keeps its entry until then). */
  e: number;
  /** The call's id, the same in every state of one call: it links the call's runs in the audit. Absent in states sealed before call ids existed. */
  c?: string;
}

/** Not a requestState but a task id (tasks/task-table.ts): the task runs on instance `i`. */
export interface TaskClaims extends Bound {
  k: 'task';
  r: 0;
  fp: 'task';
  /** The upstream (route name) the task belongs to. */
  u: string;
  /** The owner's advertised base URL, where other instances forward the task's requests. */
  o?: string;
}

export type StateClaims = HoldClaims | ReplayClaims | TaskClaims;

/** What a retry's requestState may be (a task id never is). */
export type RetryClaims = HoldClaims | ReplayClaims;

export function holdClaims(of: {
  handle: string;
  instance: string;
  round: number;
  principal: string;
  fingerprint: string;
  roots?: readonly Root[] | undefined;
  ownerUrl?: string | undefined;
}): HoldClaims {
  return {
    k: 'hold',
    h: of.handle,
    i: of.instance,
    r: of.round,
    p: of.principal,
    fp: of.fingerprint,
    ...(of.roots && { rt: [...of.roots] }),
    ...(of.ownerUrl === undefined ? {} : { o: of.ownerUrl }),
  };
}

export function replayClaims(of: {
  handle: string;
  instance: string;
  round: number;
  principal: string;
  fingerprint: string;
  roots?: readonly Root[] | undefined;
  upstream: string;
  record: string;
  legacyVersion: string;
  expiresAt: number;
  callId: string;
}): ReplayClaims {
  return {
    k: 'replay',
    h: of.handle,
    i: of.instance,
    r: of.round,
    p: of.principal,
    fp: of.fingerprint,
    ...(of.roots && { rt: [...of.roots] }),
    u: of.upstream,
    x: of.record,
    lv: of.legacyVersion,
    e: of.expiresAt,
    c: of.callId,
  };
}

export function taskClaims(of: { handle: string; instance: string; principal: string; upstream: string; ownerUrl?: string | undefined }): TaskClaims {
  return {
    k: 'task',
    h: of.handle,
    i: of.instance,
    r: 0,
    p: of.principal,
    fp: 'task',
    u: of.upstream,
    ...(of.ownerUrl === undefined ? {} : { o: of.ownerUrl }),
  };
}

/** The claims as sealed: a held call's without its kind. */
export function wireClaims(claims: StateClaims): Record<string, unknown> {
  if (claims.k !== 'hold') return claims as unknown as Record<string, unknown>;
  const { k: _hold, ...wire } = claims;
  return wire;
}

/**
 * The claims of an opened payload, each field type-checked for its kind; undefined if any is
 * missing or mistyped. Fields a kind does not carry are left behind.
 */
export function readClaims(w: Record<string, unknown>): StateClaims | undefined {
  const { h, i, r, fp, k } = w;
  const p = w['p'];
  if (!isText(h) || !isText(i) || !isRound(r) || !isText(p) || !isText(fp)) return undefined;
  switch (k) {
    case undefined: {
      const rt = optionalRoots(w['rt']);
      const o = w['o'];
      if (rt === false || (o !== undefined && !isUrl(o))) return undefined;
      return { k: 'hold', h, i, r, p, fp, ...(rt && { rt }), ...(o === undefined ? {} : { o }) };
    }
    case 'replay': {
      const { u, x, lv, e, c } = w;
      const rt = optionalRoots(w['rt']);
      if (rt === false || !isText(u) || !isText(x) || !isText(lv) || typeof e !== 'number' || !Number.isFinite(e)) return undefined;
      if (c !== undefined && !isText(c)) return undefined;
      return { k, h, i, r, p, fp, ...(rt && { rt }), u, x, lv, e, ...(c === undefined ? {} : { c }) };
    }
    case 'task': {
      const { u, o } = w;
      if (r !== 0 || fp !== 'task' || !isText(u) || (o !== undefined && !isUrl(o))) return undefined;
      return { k, h, i, r, p, fp, u, ...(o === undefined ? {} : { o }) };
    }
    default:
      return undefined;
  }
}

const isText = (v: unknown): v is string => typeof v === 'string';
const isRound = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
/** An owner's base URL: other instances resolve request paths against it. */
const isUrl = (v: unknown): v is string => typeof v === 'string' && URL.canParse(v);

/** The roots claim: undefined when absent, false when mistyped. */
function optionalRoots(v: unknown): Root[] | undefined | false {
  if (v === undefined) return undefined;
  return rootsFromClaim(v) ?? false;
}

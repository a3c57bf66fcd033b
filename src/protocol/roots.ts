// Whose roots a legacy session serves. Some legacy servers (server-filesystem started without
// directories, everything) ask `roots/list` right after initialize, outside any call, and serve
// what that answer names. For a client that declares roots the proxy must then learn the client's
// roots first (an extra `input_required` round) and run the call on a session initialized with
// exactly those roots. These functions make those decisions. Pure.
import { createHash } from 'node:crypto';
import { capabilityKey, type FrontCapabilities, type LegacyCapabilities, ROOTS_CAPABILITY } from './capabilities.js';
import { isJsonObject, type Root } from './json.js';

/** The key of the `input_required` round that asks for a call's roots before the call is sent. */
export const ROOTS_ROUND_KEY = 'roots-0';

/**
 * Roots a session is bound to: `undefined` means the operator's (`--root`, per upstream `roots:`),
 * which every unbound session answers with; a client's roots bind a session of their own.
 */
export type RootsBinding = readonly Root[] | undefined;

export interface RootsFacts {
  /** The front request declares the `roots` client capability. */
  declaresRoots: boolean;
  /** The legacy server has asked `roots/list` outside a call on one of its sessions. */
  serverAsksOutsideCalls: boolean;
  /** The call's roots, when already known (answered in the roots round, or sealed in requestState). */
  known: readonly Root[] | undefined;
}

export type RootsPlan = { kind: 'operator' } | { kind: 'ask' } | { kind: 'client'; roots: readonly Root[] };

/** True when a 2026-07-28 request declares the `roots` client capability. */
export function declaresRoots(caps: FrontCapabilities | undefined): boolean {
  return isJsonObject(caps?.roots);
}

/** Does this call need a roots round, and whose roots does its session serve? */
export function planRoots(f: RootsFacts): RootsPlan {
  if (f.known !== undefined) return { kind: 'client', roots: f.known };
  if (!f.declaresRoots || !f.serverAsksOutsideCalls) return { kind: 'operator' };
  return { kind: 'ask' };
}

/** The roots a binding answers a legacy `roots/list` outside calls with. */
export function rootsServed(binding: RootsBinding, operatorRoots: readonly Root[]): readonly Root[] {
  return binding ?? operatorRoots;
}

/**
 * The capabilities a legacy session is opened with. With operator roots configured every session
 * declares `roots`, so a server that needs roots gets them even from a client that declares none.
 */
export function sessionCapabilities(caps: LegacyCapabilities, operatorRoots: readonly Root[]): LegacyCapabilities {
  return operatorRoots.length > 0 && !caps.roots ? { ...caps, roots: ROOTS_CAPABILITY } : caps;
}

/** A short digest of a list of roots: equal lists (same order, URIs and names) give equal digests. */
export function rootsDigest(roots: readonly Root[]): string {
  const canonical = JSON.stringify(roots.map((r) => (r.name === undefined ? [r.uri] : [r.uri, r.name])));
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
}

/**
 * Sessions are pooled by this key: capability set, for client roots a digest of them, and the
 * principal whose calls the session carries (undefined: any principal's; a digest, so that the key
 * never shows who).
 */
export function sessionKey(caps: LegacyCapabilities, binding: RootsBinding, principal?: string): string {
  const key = capabilityKey(caps);
  const withRoots = binding === undefined ? key : `${key}#roots:${rootsDigest(binding)}`;
  return principal === undefined ? withRoots : `${withRoots}#principal:${createHash('sha256').update(principal).digest('base64url').slice(0, 22)}`;
}

/** Only `uri` and `name` of each root, so nothing else reaches the legacy server or the digest. */
export function normalizeRoots(roots: ReadonlyArray<{ uri: string; name?: string | undefined }>): Root[] {
  return roots.map((r) => (typeof r.name === 'string' ? { uri: r.uri, name: r.name } : { uri: r.uri }));
}

/** Roots ride sealed in every later requestState, which must stay small. */
export const MAX_ROOTS_JSON_CHARS = 4096;

/** Why a client's roots cannot bind a session, or `undefined` when they can. */
export function rootsProblem(roots: readonly Root[]): string | undefined {
  const size = JSON.stringify(roots).length;
  if (size > MAX_ROOTS_JSON_CHARS) return `the roots are too large to carry in requestState (${size} characters of JSON; at most ${MAX_ROOTS_JSON_CHARS})`;
  return undefined;
}

/** Reads roots back from a sealed state claim; `undefined` when the value is not a list of roots. */
export function rootsFromClaim(value: unknown): Root[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: Root[] = [];
  for (const r of value) {
    if (!isJsonObject(r) || typeof r['uri'] !== 'string') return undefined;
    if (r['name'] !== undefined && typeof r['name'] !== 'string') return undefined;
    out.push(typeof r['name'] === 'string' ? { uri: r['uri'], name: r['name'] } : { uri: r['uri'] });
  }
  return out;
}

/**
 * A legacy `roots/list` during a call from a client that declared no roots: with operator roots
 * configured the session was opened with the roots capability for them, so the proxy answers with
 * those; `undefined` means the request goes the usual way (an input round, or -32021).
 */
export function operatorRootsAnswer(method: string, declaresRoots: boolean, operatorRoots: readonly Root[]): { roots: Root[] } | undefined {
  if (method !== 'roots/list' || declaresRoots || operatorRoots.length === 0) return undefined;
  return { roots: operatorRoots.map((r) => ({ ...r })) };
}

export interface CallRootsFacts {
  /** The front request declares the `roots` client capability. */
  declaresRoots: boolean;
  /** The roots the client gave earlier in this call (a roots round, an earlier round's roots/list). */
  known: readonly Root[] | undefined;
  operatorRoots: readonly Root[];
}

/**
 * A legacy `roots/list` during a call, answered without asking the client: with the roots the
 * client gave earlier in the same call (asked moments before, they are what it would answer again;
 * asking costs the client a round trip), or with the operator's for a client that declared none
 * (operatorRootsAnswer). `undefined`: ask the client.
 */
export function callRootsAnswer(method: string, f: CallRootsFacts): { roots: Root[] } | undefined {
  if (method !== 'roots/list') return undefined;
  if (f.declaresRoots && f.known !== undefined) return { roots: f.known.map((r) => ({ ...r })) };
  return operatorRootsAnswer(method, f.declaresRoots, f.operatorRoots);
}

/**
 * The roots a client gave in answer to a legacy `roots/list` during a call, once normalized, or
 * `undefined` when none of `answers` is such an answer (or it cannot bind a session: rootsProblem).
 * They become the call's roots: a call that runs again (replay, a URL elicitation) runs on a
 * session serving them.
 */
export function rootsFromAnswers(answers: Iterable<{ method: string; answer: unknown }>): Root[] | undefined {
  for (const { method, answer } of answers) {
    if (method !== 'roots/list' || !isJsonObject(answer) || !Array.isArray(answer['roots'])) continue;
    const roots = normalizeRoots((answer['roots'] as unknown[]).filter(isRootLike));
    if (rootsProblem(roots) === undefined) return roots;
  }
  return undefined;
}

function isRootLike(r: unknown): r is { uri: string; name?: string } {
  return isJsonObject(r) && typeof r['uri'] === 'string';
}

/**
 * Whether a client's answer to a legacy `roots/list` during a call names other roots than the
 * session serves outside calls (`served`): the server then holds roots that are not the session's,
 * and a session that declared `roots.listChanged` must tell it they changed once the call is over,
 * so that it asks again and the next caller does not read them.
 */
export function answerLeavesOtherRoots(answer: unknown, served: readonly Root[]): boolean {
  const given = rootsFromAnswers([{ method: 'roots/list', answer }]);
  return given !== undefined && rootsDigest(given) !== rootsDigest(served);
}

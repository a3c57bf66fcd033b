// What the proxy learns of a legacy server, per upstream configuration (after a reload the server
// may differ): what it asks outside calls, and which calls asked without provenance.
import type { UpstreamConfig } from '../config/types.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../telemetry/logger.js';
import { AskLearner } from './ask-learning.js';
import { OutsideCalls } from './outside-calls.js';

export interface Learned {
  outside: OutsideCalls;
  askers: AskLearner;
}

export function learnedFor(store: WeakMap<UpstreamConfig, Learned>, config: UpstreamConfig, log: Logger, clock: Clock): Learned {
  const known = store.get(config);
  if (known) return known;
  const says = (call: string, how: 'untied' | 'exclusive') =>
    how === 'exclusive'
      ? log.warn('such calls get a legacy session of their own from now on: one of them asked while another untied call ran', { call })
      : log.debug('a legacy request came without provenance: such calls run one at a time per legacy session', { call });
  const fresh = { outside: new OutsideCalls(log, clock), askers: new AskLearner(says, clock) };
  store.set(config, fresh);
  return fresh;
}

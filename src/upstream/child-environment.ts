// The environment of every legacy child the proxy starts (sessions, the era probe, the modern
// stdio relay): the v1 SDK's default (HOME, LOGNAME, PATH, SHELL, TERM, USER) plus the variables
// the configuration resolved for it. Nothing else of the proxy's environment, its state key
// included, reaches a child.
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

export function childEnvironment(target: { env?: Record<string, string> }): Record<string, string> {
  return { ...getDefaultEnvironment(), ...target.env };
}

// One flat log entry as the JSON line winston's json format writes for it (keys sorted, undefined
// fields left out, secrets blanked out of every string), built without winston's stream: for the
// one line written per front request (the access log). Pure.

/** A flat entry: what the access log writes. */
export type FlatFields = Readonly<Record<string, string | number | boolean | undefined>>;

/** `hidden`: the secrets (each at least 8 characters) blanked out of every string value. */
export function jsonLine(level: string, message: string, fields: FlatFields, timestamp: string, hidden: readonly string[]): string {
  const entry: Record<string, string | number | boolean | undefined> = { ...fields, level, message, timestamp };
  let line = '{';
  for (const key of Object.keys(entry).sort()) {
    const value = entry[key];
    if (value === undefined) continue;
    if (line.length > 1) line += ',';
    line += `${JSON.stringify(key)}:${typeof value === 'string' ? JSON.stringify(redacted(value, hidden)) : JSON.stringify(value)}`;
  }
  return `${line}}`;
}

function redacted(value: string, hidden: readonly string[]): string {
  for (const secret of hidden) if (value.includes(secret)) return hidden.reduce((t, s) => t.split(s).join('[redacted]'), value);
  return value;
}

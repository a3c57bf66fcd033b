// Watches the configuration file and calls back once per change. It watches the file's directory,
// not the file: editors that save by writing a new file and renaming it over the old one replace
// the inode a file watch would hold. Events are debounced (one save is several events) and a
// change that leaves the text as it was is ignored.
import { type FSWatcher, readFileSync, watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Logger } from '../telemetry/logger.js';

export const WATCH_DEBOUNCE_MS = 200;

export interface ConfigWatcher {
  close(): void;
}

export function watchConfigFile(path: string, onChange: () => void, log: Logger, debounceMs = WATCH_DEBOUNCE_MS): ConfigWatcher {
  const file = resolve(path);
  const name = basename(file);
  let last = read(file);
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher;
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
      // Some platforms do not name the file; then any change in the directory is checked.
      if (changed !== null && changed !== name) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        const now = read(file);
        // A file that is gone for a moment (mid-rename) is not a change; its replacement will be.
        if (now === undefined || now === last) return;
        last = now;
        log.info('configuration file changed; reloading', { file });
        onChange();
      }, debounceMs);
    });
  } catch (err) {
    log.warn('cannot watch the configuration file; SIGHUP still reloads it', { file, error: (err as Error).message });
    return { close() {} };
  }
  watcher.on('error', (err) => log.warn('configuration file watch failed; SIGHUP still reloads it', { file, error: err.message }));
  return {
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

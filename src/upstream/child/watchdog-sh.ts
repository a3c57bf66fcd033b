// The watchdog as a POSIX shell script, what the proxy runs outside Windows: watchdog.ts's protocol
// and behaviour (`+PID` / `-PID` lines; when the pipe from the proxy closes, SIGTERM to every group
// still listed, SIGKILL after a second to those that were still there; Ctrl-C, SIGTERM and SIGHUP
// ignored). It starts with the first legacy child, and a `sh` starts in a few milliseconds where a
// second `node` takes CPU from the legacy child starting beside it (docs/performance.md).
// A PID is digits, not starting with 0 (`-01` would be -1: every process), and not 1.

/** `$0` of the script, so that it can be told apart from legacy children in `ps` (and by the tests). */
export const WATCHDOG_NAME = 'mrtr-proxy-watchdog';

export const WATCHDOG_SCRIPT = `trap '' INT TERM HUP
groups=
while IFS= read -r line; do
  pid=\${line#?}
  case $pid in ''|*[!0-9]*|0*|1) continue ;; esac
  case $line in
    +*) groups="$groups $pid" ;;
    -*) rest=; for g in $groups; do [ "$g" = "$pid" ] || rest="$rest $g"; done; groups=$rest ;;
  esac
done
alive=
for g in $groups; do kill -s TERM -- "-$g" 2>/dev/null && alive="$alive $g"; done
[ -z "$alive" ] && exit 0
sleep 1
for g in $alive; do kill -s KILL -- "-$g" 2>/dev/null; done
exit 0
`;

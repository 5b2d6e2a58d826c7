# Source this file to make sure the few system programs promop's scripts use are present:
# openssl (throw-away certificates for the test control plane) and pgrep (leftover-process
# check). Debian machines normally have both; a minimal image may not. Installs only what is
# missing, and only when running as root (never touches a developer's machine otherwise).
promop_missing=()
command -v openssl >/dev/null 2>&1 || promop_missing+=(openssl)
command -v pgrep >/dev/null 2>&1 || promop_missing+=(procps)
if [ "${#promop_missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "[system-deps] installing ${promop_missing[*]}" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${promop_missing[@]}" >&2
  else
    echo "[system-deps] please install: ${promop_missing[*]}" >&2
    return 1
  fi
fi
unset promop_missing

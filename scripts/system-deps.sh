# Source this file to make sure the system programs promop's scripts use are present: openssl (throw-away
# certificates for the test control plane), pgrep (leftover-process check), and for the real test node: runc,
# the CNI plugins, iptables and conntrack (kube-proxy), iproute2 and nsenter (the node's network namespace); zsh
# (the completion test loads promop's zsh script).
# Debian machines may lack the node's parts. Installs only what is missing, and only when running as root (never
# touches a developer's machine otherwise).
promop_missing=()
command -v openssl >/dev/null 2>&1 || promop_missing+=(openssl)
command -v pgrep >/dev/null 2>&1 || promop_missing+=(procps)
[ -x /usr/sbin/runc ] || promop_missing+=(runc)
[ -x /usr/lib/cni/bridge ] || promop_missing+=(containernetworking-plugins)
[ -x /usr/sbin/iptables ] || promop_missing+=(iptables)
command -v conntrack >/dev/null 2>&1 || promop_missing+=(conntrack)
command -v ip >/dev/null 2>&1 || promop_missing+=(iproute2)
command -v nsenter >/dev/null 2>&1 || promop_missing+=(util-linux)
command -v zsh >/dev/null 2>&1 || promop_missing+=(zsh)
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

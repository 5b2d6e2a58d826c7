# Source this file (`. scripts/node-env.sh`) to get Node >= 22.19 and pnpm on PATH.
#
# promop needs Node 24 LTS (@kubernetes/client-node 2.x and undici 8 do not load on Node 20).
# When the `node` on PATH is older than 22.19, this installs the npm package node@24, which
# carries the official Node binary, into the git-ignored folder .node/ and puts it first on
# PATH for this shell only. The system Node is never replaced. pnpm, at the version pinned in
# package.json's packageManager, is installed into the same folder when PATH lacks it.

promop_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
promop_node_dir="$promop_root/.node"
promop_node_version=24.21.0
promop_pnpm_version="$(sed -n 's/.*"packageManager": *"pnpm@\([0-9.]*\)".*/\1/p' "$promop_root/package.json")"

promop_node_ok() {
  command -v node >/dev/null 2>&1 &&
    node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=19)?0:1)'
}

[ -d "$promop_node_dir/node_modules/.bin" ] && PATH="$promop_node_dir/node_modules/.bin:$PATH"
promop_wanted=()
promop_node_ok || promop_wanted+=("node@$promop_node_version")
[ "$(pnpm --version 2>/dev/null)" = "$promop_pnpm_version" ] || promop_wanted+=("pnpm@$promop_pnpm_version")
if [ "${#promop_wanted[@]}" -gt 0 ]; then
  echo "[node-env] installing ${promop_wanted[*]} into .node/ (node on PATH: $(node --version 2>/dev/null || echo none))" >&2
  mkdir -p "$promop_node_dir"
  npm install --prefix "$promop_node_dir" --save-exact --no-audit --no-fund --loglevel=error "${promop_wanted[@]}" >&2 || return 1
  PATH="$promop_node_dir/node_modules/.bin:$PATH"
fi
export PATH
echo "[node-env] node $(node --version), pnpm $(pnpm --version)" >&2
unset -f promop_node_ok
unset promop_wanted promop_node_version promop_pnpm_version

# The machine's cache of built tools, shared by every clone of the repository on the machine (sourced by
# build-lib.sh). A binary built with -trimpath is a function of what the key hashes: the Go toolchain and target, the
# build flags and ldflags, the package, the wrapper module (go.mod, go.sum, its Go files) and the build scripts. A
# fresh clone copies a binary whose key is in the cache instead of linking it again from Go's build cache (minutes for
# the Kubernetes binaries); a changed input is a new key, so a stale binary is never used.
# PROMOP_TOOLS_CACHE moves the cache; PROMOP_TOOLS_CACHE=off turns it off.

tool_cache_dir="${PROMOP_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/promop-tools}"
# Keys no build used for two weeks belong to versions the repository has moved past (a set is about 1.5 GB).
if [[ "$tool_cache_dir" != off && -d "$tool_cache_dir" ]]; then
  find "$tool_cache_dir" -mindepth 1 -maxdepth 1 -type d -mtime +14 -exec rm -rf {} + 2>/dev/null || true
fi

# tool_cache_key <module dir> <binary> <package> <ldflags> <build script>...: the key of one binary.
tool_cache_key() {
  local module_dir="$1" bin="$2" pkg="$3" ldflags="$4"
  shift 4
  {
    printf '%s\n' "bin=$bin" "pkg=$pkg" "ldflags=$ldflags" "GOFLAGS=${GOFLAGS:-}" "CGO_ENABLED=${CGO_ENABLED:-}"
    # From the module's directory: a go.mod's toolchain line can switch the Go version there.
    (cd "$module_dir" && go env GOVERSION GOOS GOARCH GOAMD64 GOARM64 GOEXPERIMENT GOFIPS140)
    cat "$@" | sha256sum
    find "$module_dir" -maxdepth 1 -type f \( -name go.mod -o -name go.sum -o -name '*.go' \) -print0 | sort -z | xargs -0 -r sha256sum | sed "s|$module_dir/||"
  } | sha256sum | cut -c1-32
}

# tool_cache_restore <key> <binary> <destination>: copies the cached binary there; fails when there is none.
tool_cache_restore() {
  [[ "$tool_cache_dir" != off && -x "$tool_cache_dir/$1/$2" ]] || return 1
  touch "$tool_cache_dir/$1"
  cp "$tool_cache_dir/$1/$2" "$3.tmp" && mv "$3.tmp" "$3"
}

# tool_cache_save <key> <binary> <built file>: keeps a copy for the next clone (best effort: a full disk only
# costs the next clone a build).
tool_cache_save() {
  [[ "$tool_cache_dir" != off ]] || return 0
  mkdir -p "$tool_cache_dir/$1" 2>/dev/null && cp "$3" "$tool_cache_dir/$1/$2.tmp.$$" 2>/dev/null &&
    mv "$tool_cache_dir/$1/$2.tmp.$$" "$tool_cache_dir/$1/$2" || rm -f "$tool_cache_dir/$1/$2.tmp.$$"
  return 0
}

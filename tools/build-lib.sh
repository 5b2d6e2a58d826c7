# What tools/build.sh and tools/build-prometheus-operator.sh share (sourced by both): when a binary needs no build,
# building a module's binaries with one `go build`, and running several module builds at a time.
#
# The callers set: here (the tools/ directory), out (where binaries go), common_flags (go build flags) and
# build_script (the calling script, part of every cache key).

log() { printf '[tools] %s\n' "$*" >&2; }
# shellcheck source=tools/tool-cache.sh
. "$here/tool-cache.sh"

# up_to_date <binary> <stamp>: 0 when nothing needs building.
up_to_date() {
  local bin="$1" stamp="$2"
  if [[ -n "${KUBEBUILDER_ASSETS:-}" && -x "$KUBEBUILDER_ASSETS/$bin" ]]; then
    log "$bin: using \$KUBEBUILDER_ASSETS/$bin"; return 0
  fi
  if [[ -x "$out/$bin" ]]; then
    if [[ -f "$out/$bin.version" && "$(cat "$out/$bin.version")" == "$stamp" ]]; then
      log "$bin: $stamp already built"; return 0
    fi
    if [[ -n "${PROMOP_TOOLS_DIR:-}" && ! -f "$out/$bin.version" ]]; then
      log "$bin: using the binary you provided in \$PROMOP_TOOLS_DIR"; return 0
    fi
  fi
  return 1
}

# build <module dir> <stamp> <ldflags> <binary=package>...: the binaries not up to date, each copied from the tool
# cache when it holds them, the rest built by one `go build` in the module directory (or in $build_in when set: a
# copy of the module that go build must run in, keyed by the module directory all the same). One go build for all of
# a module's binaries compiles their shared packages once and links them side by side.
build() {
  local dir="$1" stamp="$2" ldflags="$3"; shift 3
  local module_dir="$here/$dir" run_in="${build_in:-$here/$dir}"
  local pair bin pkg key
  local -a missing=() keys=()
  for pair in "$@"; do
    bin="${pair%%=*}"; pkg="${pair#*=}"
    up_to_date "$bin" "$stamp" && continue
    key="$(tool_cache_key "$module_dir" "$bin" "$pkg" "${common_flags[*]} -s -w $ldflags" "$build_script" "$here/build-lib.sh")"
    if tool_cache_restore "$key" "$bin" "$out/$bin"; then
      echo "$stamp" > "$out/$bin.version"
      log "$bin: $stamp copied from the machine's tool cache"
      continue
    fi
    missing+=("$pair"); keys+=("$key")
  done
  ((${#missing[@]})) || return 0
  local names=("${missing[@]%%=*}") packages=("${missing[@]#*=}")
  log "${names[*]}: building $stamp (a cold build takes minutes; later runs reuse Go's build cache)"
  local started=$SECONDS staging
  # go build -o <dir>/ names each binary after its package's last element; the staging directory keeps half-built
  # files out of $out, and the binaries are renamed to the names the tests use.
  staging="$(mktemp -d "$out/.build.XXXXXX")"
  if ((${#packages[@]} == 1)); then
    (cd "$run_in" && go build "${common_flags[@]}" -ldflags "-s -w $ldflags" -o "$staging/${names[0]}" "${packages[0]}") ||
      { rm -rf "$staging"; return 1; }
  else
    (cd "$run_in" && go build "${common_flags[@]}" -ldflags "-s -w $ldflags" -o "$staging/" "${packages[@]}") ||
      { rm -rf "$staging"; return 1; }
    local i
    for i in "${!packages[@]}"; do
      [[ "${packages[i]##*/}" == "${names[i]}" ]] || mv "$staging/${packages[i]##*/}" "$staging/${names[i]}"
    done
  fi
  local i
  for i in "${!names[@]}"; do
    mv "$staging/${names[i]}" "$out/${names[i]}"
    echo "$stamp" > "$out/${names[i]}.version"
    tool_cache_save "${keys[i]}" "${names[i]}" "$out/${names[i]}"
  done
  rmdir "$staging"
  log "${names[*]}: built in $((SECONDS - started))s"
}

# Module builds side by side: compiling keeps both cores busy, but loading a module's packages and every link run
# on one core, so a second build fills the gaps. PROMOP_TOOLS_JOBS sets how many (default 2).
build_jobs_max="${PROMOP_TOOLS_JOBS:-2}"
declare -A build_jobs=() # pid → what it builds
build_jobs_failed=()

# in_background <name> <command>...: runs the command as a job once fewer than build_jobs_max are running.
in_background() {
  while ((${#build_jobs[@]} >= build_jobs_max)); do reap_build_job; done
  "${@:2}" &
  build_jobs[$!]="$1"
}

reap_build_job() {
  local pid status=0
  wait -n -p pid "${!build_jobs[@]}" || status=$?
  if ((status)); then
    log "error: building ${build_jobs[$pid]} failed (exit $status)"
    build_jobs_failed+=("${build_jobs[$pid]}")
  fi
  unset "build_jobs[$pid]"
}

# wait_for_builds: waits for every job; fails when any failed.
wait_for_builds() {
  while ((${#build_jobs[@]})); do reap_build_job; done
  ((${#build_jobs_failed[@]} == 0)) || { log "error: not built: ${build_jobs_failed[*]}"; return 1; }
}

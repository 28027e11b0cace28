import { runMicro } from '/work/main/bench/micro/run-micro.ts';
runMicro({ quick: true, log: (l) => console.error(l) }).then((r) => console.log(JSON.stringify(r, null, 1)));

import '/work/main/server/main.ts'; const u=process.memoryUsage(); console.log('/work/main/server/main.ts'.padEnd(45), Math.round(u.rss/1048576), Math.round(u.heapUsed/1048576));

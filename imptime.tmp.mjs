const mods = process.argv.slice(2);
for (const m of mods) {
  const t0 = performance.now();
  await import(m);
  console.log((performance.now() - t0).toFixed(0).padStart(6), 'ms', m);
}

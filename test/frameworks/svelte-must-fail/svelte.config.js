// svelte-check reads this instead of walking up to the demo's vite.config.ts.
export default {};

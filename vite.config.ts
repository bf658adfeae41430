import { defineConfig } from 'vite';

// The demo (`npm start`) serves index.html; the sandbox and the demo backend are added by demo/ plugins.
export default defineConfig({
  server: { host: 'localhost', port: 5173 },
});

import { defineConfig } from 'vite';
import { demoBackend } from './demo/backend-plugin.js';

// The demo (`npm start`) serves index.html; demo/backend-plugin.ts is its backend and starts the
// sandbox payment service (or talks to the service named by PAY_FORM_* variables: see the README).
export default defineConfig({
  server: { host: 'localhost', port: 5173 },
  plugins: [demoBackend()],
});

import { defineConfig } from 'vite';
import { demoBackend } from './demo/backend-plugin.js';

// The demo (`npm start`) serves index.html; demo/backend-plugin.ts is its backend and starts the
// sandbox payment service (or talks to the service named by PAY_FORM_* variables: see the README).
// Lit's production build, as a shop would ship it (the development one warns in the console on every page).
export default defineConfig({
  server: { host: 'localhost', port: 5173 },
  resolve: { conditions: ['module', 'browser', 'production'] },
  plugins: [demoBackend()],
});

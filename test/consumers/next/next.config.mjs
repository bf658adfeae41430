import path from 'node:path';

// The app is a folder inside the pay-form repository, whose node_modules hold next and react.
const repository = path.resolve(import.meta.dirname, '../..');

/** @type {import('next').NextConfig} */
export default { turbopack: { root: repository }, outputFileTracingRoot: repository };

import vue from '@vitejs/plugin-vue';
import { isCustomElement } from 'pay-form/vue';
import { defineConfig } from 'vite';

export default defineConfig({ plugins: [vue({ template: { compilerOptions: { isCustomElement } } })] });

// The app: Vue leaves <pay-form> to the browser (isCustomElement) instead of resolving a component.
import { createApp } from 'vue';
import { isCustomElement } from 'pay-form/vue';
import Checkout from './Checkout.vue';

const app = createApp(Checkout, { orderRef: 'ORDER-42' });
app.config.compilerOptions.isCustomElement = isCustomElement;
app.mount('#app');

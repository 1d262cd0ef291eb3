import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';
import { initErrorsStore, useErrorsStore } from './stores/errors';
import { initJobsStore } from './stores/jobs';
import { initInstallStore } from './stores/install';
import { initFilesStore } from './stores/files';
import { initModsStore } from './stores/mods';
import { initConnectionStore } from './stores/connection';
import { startRouting } from './routing';
import './styles/app.css';

const app = createApp(App);
const pinia = createPinia();
app.use(pinia);
// Last line of defence behind App's onErrorCaptured: anything thrown outside a component's render.
app.config.errorHandler = (error) => {
  useErrorsStore().report(error);
};
app.mount('#app');

initErrorsStore();
initJobsStore();
initConnectionStore();
initInstallStore();
initFilesStore();
initModsStore();
void startRouting();

import { defineAsyncComponent, type Component } from 'vue';
import HomeView from './views/HomeView.vue';
import FilesView from './views/FilesView.vue';
import ArchiveView from './views/ArchiveView.vue';
import DefinitionsView from './views/DefinitionsView.vue';
import SearchView from './views/SearchView.vue';
import UnitsView from './views/UnitsView.vue';

/** The studio's screens, in the order of the navigation bar. */
export interface Screen {
  id: string;
  label: string;
  component: Component;
  /** Needs an open install (greyed out before). */
  needsInstall: boolean;
  /** Only for installs with TA-style definitions (hidden for the Quake family). */
  needsDefinitions?: boolean;
}

export const screens: Screen[] = [
  { id: 'home', label: 'Home', component: HomeView, needsInstall: false },
  { id: 'files', label: 'Files', component: FilesView, needsInstall: true },
  { id: 'archive', label: 'Archive', component: ArchiveView, needsInstall: false },
  { id: 'definitions', label: 'Definitions', component: DefinitionsView, needsInstall: true, needsDefinitions: true },
  { id: 'units', label: 'Units', component: UnitsView, needsInstall: true, needsDefinitions: true },
  { id: 'search', label: 'Search', component: SearchView, needsInstall: true },
];

// The mod workflow's screen (renderer/views/ModView.vue) joins the bar when it exists; a glob rather than
// an import so the studio builds either way.
const modView = import.meta.glob<{ default: Component }>('./views/ModView.vue');
for (const load of Object.values(modView)) {
  screens.push({ id: 'mods', label: 'Mods', component: defineAsyncComponent(() => load().then((m) => m.default)), needsInstall: false });
}

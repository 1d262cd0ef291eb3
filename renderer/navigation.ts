import type { Component } from 'vue';
import HomeView from './views/HomeView.vue';
import FilesView from './views/FilesView.vue';
import ArchiveView from './views/ArchiveView.vue';
import DefinitionsView from './views/DefinitionsView.vue';
import ModView from './views/ModView.vue';
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
  { id: 'mods', label: 'Mods', component: ModView, needsInstall: false },
];

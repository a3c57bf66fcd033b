// The package's entry point (`import { createProxy } from 'mrtr-proxy'`): the library API only.
export { ConfigFileError, type ConfigObject, createProxy, type CreateProxyOptions, type MrtrProxy, StartError } from './app/create-proxy.js';

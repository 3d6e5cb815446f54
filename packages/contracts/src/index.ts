export * from './api.ts';
export * from './server-messages.ts';
export * from './routes.ts';
export * from './login.ts';

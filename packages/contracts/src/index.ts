export * from './api.ts';
export * from './server-messages.ts';
export * from './routes.ts';
export * from './login.ts';
export * from './classes.ts';
export * from './model-card.ts';
export * from './diagnosis.ts';

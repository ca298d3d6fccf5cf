import { lazyScreen } from './lazy';

/**
 * The screens outside the signed-in route table. Kept apart from screens.ts so the login page
 * loads without the table of every console screen (router.tsx imports it when signed in).
 */
export const Shell = lazyScreen(() => import('./Shell'));
export const ComingSoon = lazyScreen(() => import('./ComingSoon'));
export const LoginScreen = lazyScreen(() => import('../features/auth/screens/LoginScreen'));
export const RegisterScreen = lazyScreen(() => import('../features/auth/screens/RegisterScreen'));
export const ThirdLoginScreen = lazyScreen(() => import('../features/auth/screens/ThirdLoginScreen'));
export const StatusScreen = lazyScreen(() => import('./StatusScreen'));
export const VisitorPlaceholder = lazyScreen(() => import('../features/visitor/VisitorPlaceholder'));

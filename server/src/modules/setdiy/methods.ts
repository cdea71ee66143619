import { setdiyMethods } from './pages.js';

/** DIY pages of the owner app (/setdiy on the group side; issue 45), gated by is_diyhome_auth. */
export const setdiyModule = [...setdiyMethods];

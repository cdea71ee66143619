export { FeesArrearsCard as default } from './FeesCards';

export { FeesMonthCard as default } from './FeesCards';

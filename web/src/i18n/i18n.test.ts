import { describe, expect, it } from 'vitest';
import i18n, { changeLanguage, initI18n, registerRouteTitles } from './index';

describe('i18n', () => {
  it('takes route titles registered before and after start-up; en/es fall back to zh-CN', () => {
    registerRouteTitles({ 'zh-CN': { demoArea: '演示区' }, en: { demoArea: 'Demo area' } });
    initI18n('zh-CN');
    expect(i18n.t('route.demoArea')).toBe('演示区');
    expect(i18n.t('route.dashboard')).toBe('首页');
    registerRouteTitles({ 'zh-CN': { later: '后来的' } });
    changeLanguage('en');
    expect(i18n.t('route.demoArea')).toBe('Demo area');
    expect(i18n.t('route.later')).toBe('后来的');
    changeLanguage('es');
    expect(i18n.t('route.dashboard')).toBe('Panel');
    expect(i18n.t('route.demoArea')).toBe('演示区');
  });
});

import { describe, expect, it } from 'vitest';
import { navbarVisibility } from './visibility';

const info = {
  region_img: '/img/plan.png',
  help_work_url: 'https://help.example.com',
  property_app_url: 'https://app.example.com/p.apk',
  wxapp_qrcodes: '',
  consume_mobile_app_url: '',
  consume_app_url: 'https://app.example.com/pc.exe',
};

describe('top bar visibility (spec 2.3)', () => {
  it('admin sees everything that has an address', () => {
    const v = navbarVisibility({ sysType: 'property', roles: ['admin'], permissions: [], info });
    expect(v).toMatchObject({ board: true, backlog: true, updatelog: true, floorPlan: true, help: true, switchRegion: true });
    expect(v.appDownload).toEqual({ propertyApp: true, wxapp: false, consumeMobileApp: false, consumeApp: true });
  });
  it('merchant sees no board, to-do, update log, floor plan, help or switch', () => {
    const v = navbarVisibility({ sysType: 'merchant', roles: ['admin'], permissions: ['updatelog'], info });
    expect(v).toMatchObject({ board: false, backlog: false, updatelog: false, floorPlan: false, help: false, switchRegion: false });
  });
  it('leader_admin has no to-do icon', () => {
    const v = navbarVisibility({ sysType: 'leader', roles: ['leader_admin'], permissions: [], info });
    expect(v.backlog).toBe(false);
    expect(v.board).toBe(true);
    expect(v.updatelog).toBe(false);
  });
  it('update log for the updatelog permission', () => {
    expect(navbarVisibility({ sysType: 'property', roles: ['cashier'], permissions: ['updatelog'], info }).updatelog).toBe(true);
    expect(navbarVisibility({ sysType: 'property', roles: ['cashier'], permissions: [], info }).updatelog).toBe(false);
  });
  it('floor plan and help need their address', () => {
    const v = navbarVisibility({ sysType: 'property', roles: ['admin'], permissions: [], info: null });
    expect(v.floorPlan).toBe(false);
    expect(v.help).toBe(false);
  });
});

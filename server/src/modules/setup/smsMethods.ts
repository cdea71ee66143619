import type { MethodDef } from '../../http/registry.js';
import { smsJobMethods, smsTemplateMethods, smsUnsubMethods } from './sms.js';
import './smsSend.js';

/** Messaging (issue 36): SMS provider settings, templates, the unsubscribe list, jobs and their log. */
export const smsModule: MethodDef[] = [...smsTemplateMethods, ...smsUnsubMethods, ...smsJobMethods];

import { describe, expect, it } from 'vitest';
import { countSetting, settings, textSetting } from '../src/settings';

describe('countSetting', () => {
  it('reads a positive whole number, spaces around it allowed', () => {
    expect(countSetting({ MAX_BODY_BYTES: '2048' }, 'MAX_BODY_BYTES')).toBe(2048);
    expect(countSetting({ BODY_READ_TIMEOUT_MS: ' 5000 ' }, 'BODY_READ_TIMEOUT_MS')).toBe(5000);
  });

  it('takes the default for a setting unset, empty, zero, negative, fractional or not a number', () => {
    for (const value of [undefined, '', '  ', '0', '-1', '1.5', 'soon']) {
      expect(countSetting({ MAX_BODY_BYTES: value }, 'MAX_BODY_BYTES'), String(value)).toBe(1_048_576);
    }
    expect(countSetting({}, 'DEFAULT_RATE_LIMIT_PER_MINUTE')).toBe(
      settings.DEFAULT_RATE_LIMIT_PER_MINUTE.default,
    );
  });
});

describe('textSetting', () => {
  it('reads the text trimmed, or the default when it is unset or blank', () => {
    expect(textSetting({ VALVE_ISSUER: ' https://valve.example.com ' }, 'VALVE_ISSUER')).toBe(
      'https://valve.example.com',
    );
    expect(textSetting({ LOG_ORIGIN: '  ' }, 'LOG_ORIGIN')).toBe('valve.local/log/0');
    expect(textSetting({}, 'VALVE_ISSUER')).toBe('https://valve.local');
  });
});

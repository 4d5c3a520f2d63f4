/* Shared helpers of the waiting page and the shop page. No framework, no globals but `Waitroom`. */
(function () {
  'use strict';

  function eventId() {
    var parts = window.location.pathname.split('/');
    return parts.length > 2 && parts[1] === 'events' ? decodeURIComponent(parts[2]) : null;
  }

  /** fetch + JSON; resolves {status, ok, body, retryAfter}; rejects only on network failure. */
  function request(method, path, body, headers) {
    var init = {
      method: method,
      credentials: 'same-origin',
      cache: 'no-store',
      headers: Object.assign({ 'Accept': 'application/json, application/problem+json' }, headers || {})
    };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(function (response) {
      return response.text().then(function (text) {
        var parsed = null;
        try { parsed = text ? JSON.parse(text) : null; } catch (e) { parsed = null; }
        var retryAfter = parseInt(response.headers.get('Retry-After') || '', 10);
        return { status: response.status, ok: response.ok, body: parsed,
          retryAfter: isNaN(retryAfter) ? null : retryAfter };
      });
    });
  }

  function setText(id, text) {
    var el = document.getElementById(id);
    if (el && el.textContent !== text) {
      el.textContent = text;
    }
  }

  function show(id, visible) {
    var el = document.getElementById(id);
    if (el) {
      el.hidden = !visible;
    }
  }

  /*
   * The page's language: <html lang> and the message bundle the gateway inlined for it (docs/operating/page-language.md).
   * Numbers, plurals, durations, times and lists follow that language; times are in the browser's own time zone.
   */
  var lang = document.documentElement.lang || 'en';
  var messages = {};
  try {
    messages = JSON.parse(document.getElementById('waitroom-messages').textContent) || {};
  } catch (e) { messages = {}; }
  var numbers = new Intl.NumberFormat(lang);
  var plurals = { select: function (n) { return n === 1 ? 'one' : 'other'; } }; /* browsers without PluralRules */
  try { plurals = new Intl.PluralRules(lang); } catch (e) { /* keep the simple rule */ }
  var units = {};

  function count(n) {
    return numbers.format(Number(n));
  }

  /*
   * The message `key` with its {placeholders} filled from `params` (numbers formatted for the language). A message with
   * plural forms takes the form Intl.PluralRules picks for params.count, 'other' where the bundle has no such form.
   */
  function t(key, params) {
    var message = own(messages, key);
    if (message === null) { return key; }
    if (typeof message === 'object') {
      var n = params && params.count !== undefined ? Number(params.count) : NaN;
      message = message[isNaN(n) ? 'other' : plurals.select(n)] || message.other;
    }
    return String(message).replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, function (all, name) {
      if (!params || params[name] === undefined || params[name] === null) { return all; }
      return typeof params[name] === 'number' ? count(params[name]) : String(params[name]);
    });
  }

  /** obj[key] if obj has it as its own property (never one of Object's), else null. */
  function own(obj, key) {
    return obj && Object.prototype.hasOwnProperty.call(obj, key) && obj[key] !== undefined ? obj[key] : null;
  }

  function unit(n, name, display) {
    var id = name + display;
    if (!units[id]) {
      try {
        units[id] = new Intl.NumberFormat(lang, { style: 'unit', unit: name, unitDisplay: display });
      } catch (e) { /* browsers without unit formatting: the number and the unit's symbol, the same in every language */
        units[id] = { format: function (v) { return count(v) + ' ' + { hour: 'h', minute: 'min', second: 's' }[name]; } };
      }
    }
    return units[id].format(n);
  }

  function list(parts, type, style) {
    try {
      return new Intl.ListFormat(lang, { type: type, style: style }).format(parts);
    } catch (e) {
      return parts.join(', ');
    }
  }

  /** Seconds as words, rounded the way people say it: "less than a minute", "5 minutes", "1 hour, 5 minutes". */
  function duration(seconds) {
    if (seconds < 60) { return t('duration.underMinute'); }
    var minutes = Math.round(seconds / 60);
    if (minutes < 60) { return unit(minutes, 'minute', 'long'); }
    var hours = Math.floor(minutes / 60);
    var rest = minutes % 60;
    return rest === 0 ? unit(hours, 'hour', 'long')
      : list([unit(hours, 'hour', 'long'), unit(rest, 'minute', 'long')], 'unit', 'long');
  }

  /** A countdown's remaining time, short: "1 hr 5 min 3 sec", "2 Std., 5 Min. und 3 Sek.". */
  function countdown(seconds) {
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var parts = [];
    if (h > 0) { parts.push(unit(h, 'hour', 'short')); }
    if (h > 0 || m > 0) { parts.push(unit(m, 'minute', 'short')); }
    parts.push(unit(seconds % 60, 'second', 'short'));
    return list(parts, 'unit', 'narrow');
  }

  function percent(fraction) {
    return new Intl.NumberFormat(lang, { style: 'percent' }).format(fraction);
  }

  /** A delay in ms of `seconds` with +/-25% random jitter, so pages do not poll in step. */
  function jittered(seconds) {
    return Math.round(seconds * 1000 * (0.75 + Math.random() * 0.5));
  }

  var times = new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit' });
  var dateTimes = new Intl.DateTimeFormat(lang, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric',
    hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });

  /* In the browser's own time zone (Intl's default). */
  function time(iso) {
    var d = new Date(iso);
    return isNaN(d.getTime()) ? iso : times.format(d);
  }

  function dateTime(iso) {
    var d = new Date(iso);
    return isNaN(d.getTime()) ? iso : dateTimes.format(d);
  }

  /** An http(s) address from a server's answer, or null: nothing else becomes a link. */
  function safeUrl(url) {
    try {
      var parsed = new URL(url, window.location.href);
      return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
    } catch (e) {
      return null;
    }
  }

  /*
   * The language switcher: choosing a language and pressing the button (not the choice alone, so moving through the
   * list by keyboard does not reload the page) keeps the choice for a year in the waitroom_lang cookie (a language tag,
   * nothing personal), which the gateway reads before Accept-Language, and reloads the page in that language.
   */
  var switcher = document.getElementById('language-form');
  if (switcher) {
    switcher.addEventListener('submit', function (e) {
      e.preventDefault();
      var chosen = document.getElementById('language').value;
      document.cookie = 'waitroom_lang=' + encodeURIComponent(chosen) + '; Path=/; Max-Age=31536000; SameSite=Lax' +
        (window.location.protocol === 'https:' ? '; Secure' : '');
      window.location.reload();
    });
  }

  window.Waitroom = { eventId: eventId, request: request, setText: setText, show: show, count: count, t: t, own: own,
    lang: lang, duration: duration, countdown: countdown, percent: percent, list: list, jittered: jittered,
    time: time, dateTime: dateTime, safeUrl: safeUrl };
}());

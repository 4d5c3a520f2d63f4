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

  function count(n) {
    return Number(n).toLocaleString();
  }

  /** Seconds as plain words, rounded the way people say it. */
  function duration(seconds) {
    if (seconds < 60) { return 'less than a minute'; }
    var minutes = Math.round(seconds / 60);
    if (minutes < 60) { return minutes === 1 ? '1 minute' : minutes + ' minutes'; }
    var hours = Math.floor(minutes / 60);
    var rest = minutes % 60;
    var h = hours === 1 ? '1 hour' : hours + ' hours';
    return rest === 0 ? h : h + ' ' + (rest === 1 ? '1 minute' : rest + ' minutes');
  }

  /** A delay in ms of `seconds` with +/-25% random jitter, so pages do not poll in step. */
  function jittered(seconds) {
    return Math.round(seconds * 1000 * (0.75 + Math.random() * 0.5));
  }

  function time(iso) {
    var d = new Date(iso);
    return isNaN(d.getTime()) ? iso : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  }

  function dateTime(iso) {
    var d = new Date(iso);
    return isNaN(d.getTime()) ? iso : d.toLocaleString([], { dateStyle: 'full', timeStyle: 'short' });
  }

  window.Waitroom = { eventId: eventId, request: request, setText: setText, show: show, count: count,
    duration: duration, jittered: jittered, time: time, dateTime: dateTime };
}());

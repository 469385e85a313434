// The tap page's session, kept in this browser's storage (bourre.web.tap.session).
//
// The server keeps nothing: the session is the tap form's fields (the hand notation
// so far, the step under way, the players' names).  They are saved here on every
// page and every keystroke in a name, and a page opened with nothing (a reload, a
// phone that slept and dropped the tab) posts them back, so the referee rebuilds the
// session.  Each browser has its own storage: two phones never share a session.
(function () {
  "use strict";
  var KEY = "bourre.tap.session";
  var form = document.getElementById("tap");
  var root = document.getElementById("session");
  if (!form || !root) {
    return;
  }
  var house = root.getAttribute("data-house") || "standard";
  var here = "/tap?house=" + encodeURIComponent(house);

  function store() {
    try {
      return window.localStorage;
    } catch (e) {
      return null; // storage refused (a private window): the page works without it
    }
  }

  function load() {
    var s = store();
    if (!s) {
      return null;
    }
    try {
      var saved = JSON.parse(s.getItem(KEY) || "null");
      return saved && saved.v === 1 && typeof saved.script === "string" ? saved : null;
    } catch (e) {
      return null;
    }
  }

  function fields() {
    var out = { v: 1, house: house, script: "", pending: "", names: [] };
    var els = document.querySelectorAll("input[form=tap], #tap input");
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      if (el.name === "script" || el.name === "pending") {
        out[el.name] = el.value;
      } else if (/^name[0-9]+$/.test(el.name)) {
        out.names[Number(el.name.slice(4))] = el.value;
      }
    }
    return out;
  }

  function worth(saved) {
    return !!(saved && (saved.script || saved.pending || saved.names.join("")));
  }

  function save() {
    var s = store();
    var now = fields();
    if (s && worth(now)) {
      s.setItem(KEY, JSON.stringify(now));
    }
  }

  function restore(saved) {
    var f = document.createElement("form");
    f.method = "post";
    f.action = "/tap?house=" + encodeURIComponent(saved.house);
    var values = { script: saved.script, pending: saved.pending || "", tap: "" };
    for (var i = 0; i < saved.names.length; i++) {
      values["name" + i] = saved.names[i] || "";
    }
    Object.keys(values).forEach(function (k) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = k;
      input.value = values[k];
      f.appendChild(input);
    });
    document.body.appendChild(f);
    f.submit();
  }

  var params = new URLSearchParams(window.location.search);
  if (params.has("new")) {
    // "Start a new session": the one saved on this phone is dropped
    var s = store();
    if (s) {
      s.removeItem(KEY);
    }
  } else if (root.getAttribute("data-fresh") === "1") {
    var saved = load();
    if (worth(saved) && saved.house === house) {
      var note = document.getElementById("restoring");
      if (note) {
        note.hidden = false;
      }
      restore(saved);
      return;
    }
    if (worth(saved)) {
      // a session at another house: offered, not mixed with this one
      var other = document.getElementById("other-session");
      var link = document.getElementById("other-session-link");
      if (other && link) {
        link.href = "/tap?house=" + encodeURIComponent(saved.house);
        link.textContent = "Go back to the session at " + saved.house;
        other.hidden = false;
      }
    }
  } else {
    save();
  }
  // a reload now asks for the page (a GET), which brings the saved session back,
  // rather than posting the last tap again
  window.history.replaceState(null, "", here);
  form.addEventListener("input", save);
  document.addEventListener("input", function (e) {
    if (e.target && e.target.getAttribute && e.target.getAttribute("form") === "tap") {
      save();
    }
  });
})();

// The server's SVG map, shown inline so that its spaces can be clicked and highlighted.
// The picture itself is the server's; this module only adds highlight overlays on top of it.
import { api } from "./api.js";

export class MapView {
  constructor(container, onClick) {
    this.el = container;
    this.onClick = onClick;
    this.url = null;
    this.loading = 0;
    this.zoomWidth = null;  // the zoomed picture's width in pixels, kept across redraws
    this.dragged = false;
    this.el.addEventListener("click", (ev) => {
      if (this.dragged) { this.dragged = false; return; }  // the end of a drag is no click
      const path = ev.target.closest && ev.target.closest("#spaces path[id]");
      const box = this.el.getBoundingClientRect();
      this.onClick(path ? path.id : null, { x: ev.clientX - box.left, y: ev.clientY - box.top }, ev);
    });
    this.enablePanAndZoom();
  }

  /** The mouse wheel zooms about the pointer, dragging pans, two fingers pinch-zoom; a zoomed
   * map scrolls in its box (the picture is drawn wider, so spaces stay clickable). */
  enablePanAndZoom() {
    const el = this.el;
    el.addEventListener("wheel", (ev) => {
      if (!this.svg || (ev.deltaY > 0 && !el.classList.contains("zoomed"))) return;
      ev.preventDefault();
      this.zoomBy(Math.exp(-ev.deltaY * 0.002), ev.clientX, ev.clientY);
    }, { passive: false });
    const touches = new Map();
    let drag = null;
    let pinch = 0;
    el.addEventListener("pointerdown", (ev) => {
      if (ev.pointerType === "touch") {
        touches.set(ev.pointerId, [ev.clientX, ev.clientY]);
        pinch = 0;
      } else if (ev.button === 0 && el.classList.contains("zoomed")) {
        drag = { x: ev.clientX, y: ev.clientY, left: el.scrollLeft, top: el.scrollTop, moved: false };
      }
    });
    el.addEventListener("pointermove", (ev) => {
      if (touches.has(ev.pointerId)) {
        touches.set(ev.pointerId, [ev.clientX, ev.clientY]);
        if (touches.size !== 2) return;
        const [[x1, y1], [x2, y2]] = [...touches.values()];
        const apart = Math.hypot(x2 - x1, y2 - y1);
        if (pinch && apart) this.zoomBy(apart / pinch, (x1 + x2) / 2, (y1 + y2) / 2);
        pinch = apart;
      } else if (drag) {
        const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
        if (!drag.moved && Math.hypot(dx, dy) < 5) return;
        drag.moved = true;
        el.scrollLeft = drag.left - dx;
        el.scrollTop = drag.top - dy;
      }
    });
    const end = (ev) => {
      touches.delete(ev.pointerId);
      if (drag && drag.moved) this.dragged = true;
      drag = null;
    };
    el.addEventListener("pointerup", end);
    el.addEventListener("pointercancel", end);
  }

  /** Zoom by ``factor`` keeping the point under (x, y) in place; back to the whole map when
   * zoomed out to the box's width. */
  zoomBy(factor, x, y) {
    const svg = this.svg;
    if (!svg) return;
    const el = this.el;
    const before = svg.getBoundingClientRect();
    const fit = el.clientWidth;
    const drawn = svg.viewBox && svg.viewBox.baseVal ? svg.viewBox.baseVal.width : fit;
    const width = Math.min(Math.max(before.width * factor, fit), Math.max(drawn * 3, fit * 6));
    if (width <= fit + 1) {
      this.zoomWidth = null;
      svg.style.width = "";
      el.classList.remove("zoomed");
    } else {
      el.classList.add("zoomed");
      this.zoomWidth = `${Math.round(width)}px`;
      svg.style.width = this.zoomWidth;
      const after = svg.getBoundingClientRect();
      el.scrollLeft += after.left + (x - before.left) * after.width / before.width - x;
      el.scrollTop += after.top + (y - before.top) * after.height / before.height - y;
    }
    el.dispatchEvent(new CustomEvent("zoomchange", { detail: { zoomed: el.classList.contains("zoomed") } }));
  }

  /** Fetch and show the SVG at ``url`` (the request carries the log-in token). */
  async show(url) {
    const ticket = ++this.loading;
    this.url = url;
    this.el.setAttribute("aria-busy", "true");
    let text;
    try {
      text = await api("GET", url);
    } catch (err) {
      if (ticket === this.loading) this.el.replaceChildren(Object.assign(document.createElement("p"), { className: "error", textContent: err.message }));
      return;
    } finally {
      if (ticket === this.loading) this.el.removeAttribute("aria-busy");
    }
    if (ticket !== this.loading) return;  // a newer picture was asked for meanwhile
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const svg = document.importNode(doc.documentElement, true);
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    // the picture's drawn width: a zoomed map is shown at least that wide (a world map of
    // hundreds of spaces needs more than the 2.5 times that suits the standard board)
    const box = svg.viewBox && svg.viewBox.baseVal;
    if (box && box.width) svg.style.setProperty("--art-width", `${box.width}px`);
    // the board's shape: the game's layout gives the map a column that fits the window's height
    if (box && box.width && box.height) (this.el.closest(".game-body") || this.el).style.setProperty("--map-aspect", String(box.width / box.height));
    if (this.zoomWidth) svg.style.width = this.zoomWidth;  // a redraw keeps the zoom
    svg.setAttribute("role", "img");
    const title = svg.querySelector("#title text");
    svg.setAttribute("aria-label", `Map: ${title ? title.textContent : "the board"}`);
    this.el.replaceChildren(svg);
  }

  get svg() { return this.el.querySelector("svg"); }

  /** Highlight provinces: groups is [[className, [province ids]], ...]. */
  highlight(groups) {
    const svg = this.svg;
    if (!svg) return;
    let layer = svg.querySelector("#rp-hl");
    if (layer) layer.remove();
    const spaces = svg.querySelector("#spaces");
    if (!spaces) return;
    layer = document.createElementNS("http://www.w3.org/2000/svg", "g");
    layer.id = "rp-hl";
    for (const [cls, provinces] of groups) {
      for (const prov of provinces) {
        const path = spaces.querySelector(`path[id="${CSS.escape(prov)}"]`);
        if (!path) continue;
        const copy = path.cloneNode(false);
        copy.removeAttribute("id");
        copy.removeAttribute("fill");
        copy.setAttribute("class", cls);
        copy.dataset.province = prov;
        layer.append(copy);
      }
    }
    const before = svg.querySelector("#centers");
    svg.insertBefore(layer, before || null);
  }

  clearHighlight() { this.highlight([]); }
}

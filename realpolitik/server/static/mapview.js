// The server's SVG map, shown inline so that its spaces can be clicked and highlighted.
// The picture itself is the server's; this module only adds highlight overlays on top of it.
import { api } from "./api.js";

export class MapView {
  constructor(container, onClick) {
    this.el = container;
    this.onClick = onClick;
    this.url = null;
    this.loading = 0;
    this.el.addEventListener("click", (ev) => {
      const path = ev.target.closest && ev.target.closest("#spaces path[id]");
      const box = this.el.getBoundingClientRect();
      this.onClick(path ? path.id : null, { x: ev.clientX - box.left, y: ev.clientY - box.top }, ev);
    });
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

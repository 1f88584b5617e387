/* Figures enlarge on a click or tap. A figure is a PNG with twice its pixels, which the page shows
   at most at its usual size (and a phone at a third of it); clicked, it opens over the page at its
   usual size or up to a third larger where the screen has room (still 1.5 image pixels per CSS
   pixel), in a box the reader scrolls or pans. A click, a tap or
   Escape closes it. */
(() => {
  const WORDS = {
    "en": ["Enlarge the figure", "Close the enlarged figure"],
    "zh-CN": ["放大这张图", "关闭放大的图"],
    "pt-BR": ["Ampliar a figura", "Fechar a figura ampliada"],
  };
  const [ENLARGE, CLOSE] = WORDS[document.documentElement.lang] || WORDS.en;

  // The size a figure is drawn at (MyST-NB writes IPython's width into its style), half its pixels.
  const usualWidth = (img) => parseFloat(img.style.width) || Number(img.getAttribute("width")) || img.naturalWidth;

  const close = () => {
    document.querySelectorAll(".course-zoom").forEach((box) => box.remove());
    document.body.classList.remove("course-zoomed");
  };

  const open = (img) => {
    close();
    const box = document.createElement("div");
    box.className = "course-zoom";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", CLOSE);
    box.title = CLOSE;
    const big = document.createElement("img");
    big.src = img.currentSrc || img.src;
    big.alt = img.alt || "";
    const usual = usualWidth(img);
    big.style.width = Math.max(usual, Math.min(window.innerWidth - 32, (4 / 3) * usual)) + "px";
    box.appendChild(big);
    box.addEventListener("click", close);
    document.body.appendChild(box);
    document.body.classList.add("course-zoomed");
    box.tabIndex = -1;
    box.focus();
  };

  // A long API name in a title (MultiWorkerMirroredStrategy) may break where its words join, not
  // at whatever letter meets a phone's edge.
  const breakCamelCase = (heading) => {
    const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
    const texts = [];
    while (walker.nextNode()) texts.push(walker.currentNode);
    texts.forEach((node) => {
      const parts = node.textContent.split(/(?<=[a-z])(?=[A-Z])/);
      if (parts.length < 2) return;
      const fragment = document.createDocumentFragment();
      parts.forEach((part, i) => {
        if (i) fragment.appendChild(document.createElement("wbr"));
        fragment.appendChild(document.createTextNode(part));
      });
      node.replaceWith(fragment);
    });
  };

  document.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("article h1").forEach(breakCamelCase);
    document.querySelectorAll(".cell_output img").forEach((img) => {
      img.classList.add("course-zoomable");
      img.tabIndex = 0;
      img.setAttribute("role", "button");
      img.title = ENLARGE;
      img.setAttribute("aria-label", img.alt ? `${ENLARGE}: ${img.alt}` : ENLARGE);
      img.addEventListener("click", (e) => { e.preventDefault(); open(img); });
      img.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); open(img); }
      });
    });
  });
})();

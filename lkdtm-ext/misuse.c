// SPDX-License-Identifier: GPL-2.0
/*
 * Stack memory where it must not go. A vmalloc'd stack address has no
 * page in the linear map, so scatterlists (CONFIG_DEBUG_SG), DMA mappings
 * (CONFIG_DMA_API_DEBUG) and virt_to_page() on it are wrong: the mistakes
 * the 2016 series fixed in rxkad and elsewhere. HEAP_SG is the fixed pattern.
 */
#include "lkdtm_ext.h"

#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#define BUF_BYTES 64

static void lkdtm_ext_STACK_SG(void)
{
	struct scatterlist sg;
	char buf[BUF_BYTES];

	if (!IS_ENABLED(CONFIG_DEBUG_SG)) {
		pr_err("XFAIL: STACK_SG: this kernel has no CONFIG_DEBUG_SG to check sg_set_buf()\n");
		return;
	}
	memset(buf, 0x5a, sizeof(buf));
	pr_info("STACK_SG: sg_init_one() on the stack buffer %p (is_vmalloc_addr %d)\n",
		buf, is_vmalloc_addr(buf));
	sg_init_one(&sg, buf, sizeof(buf));
	/* DEBUG_SG checks virt_addr_valid(): a vmap stack address must BUG. */
	if (IS_ENABLED(CONFIG_VMAP_STACK))
		pr_err("FAIL: STACK_SG: a scatterlist entry now points at the vmap stack (page pfn %#lx)\n",
		       page_to_pfn(sg_page(&sg)));
	else
		pr_info("STACK_SG: result vmalloc_stack=%d sg_page_pfn=%#lx: a linear-map stack address is valid for a scatterlist\n",
			is_vmalloc_addr(buf), page_to_pfn(sg_page(&sg)));
}

/*
 * The fixed pattern: the data goes into a heap buffer, the scatterlist
 * describes it, and reading back through the scatterlist (the kmap path a
 * driver's DMA or crypto code takes) gives the same bytes.
 */
static void lkdtm_ext_HEAP_SG(void)
{
	struct scatterlist sg;
	char *buf = kmalloc(BUF_BYTES, GFP_KERNEL);
	char copy[BUF_BYTES];
	bool virt_ok, data_ok;
	size_t copied;
	int i;

	if (!buf) {
		pr_err("HEAP_SG: cannot run: kmalloc failed\n");
		return;
	}
	for (i = 0; i < BUF_BYTES; i++)
		buf[i] = i ^ 0x5a;
	memset(copy, 0, sizeof(copy));
	sg_init_one(&sg, buf, BUF_BYTES);
	virt_ok = sg_virt(&sg) == buf;
	copied = sg_copy_to_buffer(&sg, 1, copy, sizeof(copy));
	data_ok = copied == BUF_BYTES;
	for (i = 0; i < BUF_BYTES; i++)
		if (copy[i] != (char)(i ^ 0x5a))
			data_ok = false;
	if (!virt_ok || !data_ok)
		pr_err("FAIL: HEAP_SG: the scatterlist does not describe the heap buffer\n");
	pr_info("HEAP_SG: result ok=%d buf=%p sg_page_pfn=%#lx sg_virt_matches=%d copied=%zu data_matches=%d\n",
		virt_ok && data_ok, buf, page_to_pfn(sg_page(&sg)), virt_ok, copied, data_ok);
	kfree(buf);
}

static void lkdtm_ext_STACK_DMA(void)
{
	struct platform_device *pdev;
	struct page *page;
	char buf[BUF_BYTES];
	dma_addr_t single, paged;
	int single_ok, paged_ok;

	pdev = platform_device_register_simple("lkdtm_ext_dma", -1, NULL, 0);
	if (IS_ERR(pdev)) {
		pr_err("STACK_DMA: cannot run: no lab device: %ld\n", PTR_ERR(pdev));
		return;
	}
	if (dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64))) {
		pr_err("STACK_DMA: cannot run: cannot set a DMA mask\n");
		goto out;
	}
	memset(buf, 0x5a, sizeof(buf));

	/* What a driver that forgot about vmap stacks does. */
	pr_info("STACK_DMA: dma_map_single() of the stack buffer %p\n", buf);
	single = dma_map_single(&pdev->dev, buf, sizeof(buf), DMA_TO_DEVICE);
	single_ok = !dma_mapping_error(&pdev->dev, single);
	if (single_ok)
		dma_unmap_single(&pdev->dev, single, sizeof(buf), DMA_TO_DEVICE);

	/* Its page, the right way round: DMA-API debug checks the stack. */
	page = is_vmalloc_addr(buf) ? vmalloc_to_page(buf) : virt_to_page(buf);
	pr_info("STACK_DMA: dma_map_page() of the page that holds it (pfn %#lx)\n",
		page_to_pfn(page));
	paged = dma_map_page(&pdev->dev, page, offset_in_page(buf), sizeof(buf),
			     DMA_TO_DEVICE);
	paged_ok = !dma_mapping_error(&pdev->dev, paged);
	if (paged_ok)
		dma_unmap_page(&pdev->dev, paged, sizeof(buf), DMA_TO_DEVICE);

	if (is_vmalloc_addr(buf) && single_ok)
		pr_err("FAIL: STACK_DMA: dma_map_single() mapped a vmalloc'd stack address\n");
	pr_info("STACK_DMA: result vmalloc_stack=%d map_single=%s map_page=%s\n",
		is_vmalloc_addr(buf), single_ok ? "mapped" : "refused",
		paged_ok ? "mapped" : "refused");
out:
	platform_device_unregister(pdev);
}

static void lkdtm_ext_STACK_VIRT_TO_PAGE(void)
{
	char buf[BUF_BYTES];
	unsigned long off = offset_in_page(buf);
	bool vmalloced = is_vmalloc_addr(buf);
	unsigned long pfn = PHYS_PFN(__pa(buf));
	bool v2p_valid = pfn_valid(pfn), v2p_match = false, vm2p_match = false;
	struct page *page;

	memset(buf, 0xa5, sizeof(buf));
	/* virt_to_page() is __pa() arithmetic: only right in the linear map. */
	if (v2p_valid)
		v2p_match = !memcmp(page_address(pfn_to_page(pfn)) + off, buf, sizeof(buf));
	if (vmalloced) {
		page = vmalloc_to_page(buf);
		vm2p_match = page && !memcmp(page_address(page) + off, buf, sizeof(buf));
	}
	pr_info("STACK_VIRT_TO_PAGE: result vmalloc_addr=%d virt_to_page_pfn=%#lx pfn_valid=%d virt_to_page_matches=%d vmalloc_to_page_matches=%d\n",
		vmalloced, pfn, v2p_valid, v2p_match, vm2p_match);
}

static struct crashtype crashtypes[] = {
	CRASHTYPE(STACK_SG, "a scatterlist entry on a stack buffer; DEBUG_SG must BUG"),
	CRASHTYPE(HEAP_SG, "the same with a heap buffer, the fixed pattern: runs clean"),
	CRASHTYPE(STACK_DMA, "dma_map_single() of a stack buffer; DMA-API debug must warn"),
	CRASHTYPE(STACK_VIRT_TO_PAGE, "virt_to_page() versus vmalloc_to_page() on a stack address"),
};

CRASHTYPE_CATEGORY(misuse, crashtypes);
